import { useRoute } from './route.js';
import { TokenBar } from './components/TokenBar.js';
import { Environments } from './screens/Environments.js';
import { Wizard } from './screens/Wizard.js';
import { Environment } from './screens/Environment.js';
import { Plugins } from './plugins/Plugins.js';
import { Releases } from './screens/Releases.js';
import { Crashed } from './components/Crashed.js';

export function App() {
  const [section, id, tab] = useRoute();
  let screen;
  if (section === 'new') screen = <Wizard />;
  else if (section === 'env' && id) screen = <Environment id={id} tab={tab ?? 'nodes'} />;
  else if (section === 'plugins') screen = <Plugins />;
  else if (section === 'releases') screen = <Releases />;
  else screen = <Environments />;
  const current = section ?? 'envs';
  return (
    <div className="app">
      <header className="top">
        <a className="brand" href="#/">
          Hearth
        </a>
        <nav aria-label="Main">
          <a href="#/" aria-current={current === 'envs' || current === 'env' || current === 'new' ? 'page' : undefined}>
            Environments
          </a>
          <a href="#/plugins" aria-current={current === 'plugins' ? 'page' : undefined}>
            Plugins
          </a>
          <a href="#/releases" aria-current={current === 'releases' ? 'page' : undefined}>
            Releases
          </a>
        </nav>
        <TokenBar />
      </header>
      <main>
        {/* A screen that fails says so in its place; the header (and its links away) stays. */}
        <Crashed key={`${section ?? ''}/${id ?? ''}`} what="this page">
          {screen}
        </Crashed>
      </main>
    </div>
  );
}
