import { Component, type ErrorInfo, type ReactNode } from 'react';
import { CRASH_LOG } from './crashLog.js';

interface Props {
  /** What failed, as a person names it: "the Deploy tab", "this page". */
  what: string;
  children: ReactNode;
}

/**
 * A part of the page that fails to draw (an answer of an unexpected shape, a bug) says so in its
 * place, with the error and a way to try again, instead of taking the whole page down with it:
 * React unmounts everything up to the nearest boundary, so without one a single throwing
 * component leaves a blank page. Each screen and each tab has its own (App, Environment); a new
 * screen or tab is a new boundary (they are keyed by it), so moving away is a way out too.
 */
export class Crashed extends Component<Props, { error: Error | null; stack: string }> {
  override state = { error: null as Error | null, stack: '' };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    this.setState({ stack: info.componentStack ?? '' });
    console.error(`${CRASH_LOG}: ${this.props.what}: ${error instanceof Error ? error.message : String(error)}`);
  }

  override render() {
    const { error, stack } = this.state;
    if (!error) return this.props.children;
    return (
      <div role="alert" className="problems crashed" data-testid="crashed">
        <strong>Something went wrong in {this.props.what}</strong>
        <p>
          It could not be shown: <code>{error.message || error.name}</code>. Nothing was changed by this; the rest of the page still works.
        </p>
        <p className="actions">
          <button type="button" onClick={() => this.setState({ error: null, stack: '' })}>
            Try again
          </button>{' '}
          <button type="button" className="primary" onClick={() => window.location.reload()}>
            Reload the page
          </button>
        </p>
        <details>
          <summary>Details for a bug report</summary>
          <pre>{`${error.name}: ${error.message}\n${error.stack ?? ''}${stack ? `\nIn the component:${stack}` : ''}`}</pre>
        </details>
      </div>
    );
  }
}
