import { useRoute } from './route.js';
import { TokenBar } from './components/TokenBar.js';
import { Environments } from './screens/Environments.js';
import { Wizard } from './screens/Wizard.js';
import { Environment } from './screens/Environment.js';
import { Plugins } from './plugins/Plugins.js';
import { Releases } from './screens/Releases.js';
import { Crashed } from './components/Crashed.js';
import { SignIn, WhoBar } from './accounts/SignIn.js';
import { Users } from './accounts/Users.js';
import { Activity } from './accounts/Activity.js';
import { useIsAdmin } from './accounts/AdminOnly.js';

export function App() {
  const [section, id, tab] = useRoute();
  let screen;
  if (section === 'new') screen = <Wizard />;
  else if (section === 'env' && id) screen = <Environment id={id} tab={tab ?? 'nodes'} />;
  else if (section === 'plugins') screen = <Plugins />;
  else if (section === 'releases') screen = <Releases />;
  else if (section === 'sign-in') screen = <SignIn />;
  else if (section === 'users') screen = <Users />;
  else if (section === 'activity') screen = <Activity />;
  else screen = <Environments />;
  const current = section ?? 'envs';
  // Pages only admins may use are left out of the navigation for anyone else (their address still answers, with the refusal).
  const admin = useIsAdmin();
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
          {admin && (
            <a href="#/users" aria-current={current === 'users' ? 'page' : undefined}>
              Users
            </a>
          )}
          {admin && (
            <a href="#/activity" aria-current={current === 'activity' ? 'page' : undefined}>
              Activity
            </a>
          )}
        </nav>
        <WhoBar />
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
