/** `hearth serve`: the server, its database and the web UI. */
import type { Command } from 'commander';
import { keepRunningWhenReaderLeaves } from '../pipe.js';

interface ServeOptions {
  port: string;
  host: string;
  dataDir?: string;
  protectReads?: boolean;
  allowedHosts?: string;
  bundledRelease?: boolean;
  templatesDir?: string;
  maxEnvironmentNodes?: string;
  logLevel?: string;
  logFormat?: string;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the Hearth server (REST API, web UI); embedded database unless DATABASE_URL is set')
    .option('--port <n>', 'port to listen on', '8420')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data-dir <dir>', 'embedded database folder (default: $XDG_DATA_HOME/hearth or ~/.local/share/hearth)')
    .option('--protect-reads', 'require the admin token for read-only requests too')
    .option('--allowed-hosts <names>', 'comma-separated names (Host headers) the server answers to beside localhost, 127.0.0.1, [::1], its address and HEARTH_PUBLIC_URL\'s host; bound to loopback, other names are refused (DNS rebinding); bound to 0.0.0.0 or a real address, any name is answered unless this is given; \'*\' answers any (or HEARTH_ALLOWED_HOSTS)')
    .option('--templates-dir <dir>', 'a folder of Heat templates the API may read by path (otherwise clients send the files)')
    .option('--max-environment-nodes <n>', 'at most this many nodes in one environment', '1000')
    .option('--shutdown-grace <seconds>', 'on SIGTERM/SIGINT, how long running deployment tasks may finish before they are killed (the run is then interrupted, and resumable)', '30')
    .option('--resume-interrupted', 'at start, resume the real deployments a shutdown or a crash interrupted')
    .option('--log-level <level>', 'fatal, error, warn, info, debug, trace or silent', 'info')
    .option('--log-format <format>', 'json (one record a line) or pretty (default: pretty on a terminal, json otherwise)')
    .option('--no-bundled-release', 'do not install the bundled default release on first start')
    .addHelpText('after', '\nThe admin token is printed at the first start and stored. Lost it? Stop the server, then\n  hearth token show    print it again\n  hearth token reset   replace it with a new one\n(both with the same --data-dir, or DATABASE_URL). HEARTH_ADMIN_TOKEN, when set, is the token instead.\n')
    .action(async (options: ServeOptions) => {
      keepRunningWhenReaderLeaves();
      const { serve } = await import('../../server/serve.js');
      await serve(options);
    });
}
