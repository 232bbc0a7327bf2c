/** `hearth serve`: the server, its database and the web UI. */
import type { Command } from 'commander';

interface ServeOptions {
  port: string;
  host: string;
  dataDir?: string;
  protectReads?: boolean;
  bundledRelease?: boolean;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Run the Hearth server (REST API, web UI); embedded database unless DATABASE_URL is set')
    .option('--port <n>', 'port to listen on', '8420')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--data-dir <dir>', 'embedded database folder (default: $XDG_DATA_HOME/hearth or ~/.local/share/hearth)')
    .option('--protect-reads', 'require the admin token for read-only requests too')
    .option('--no-bundled-release', 'do not install the bundled default release on first start')
    .action(async (options: ServeOptions) => {
      const { serve } = await import('../../server/serve.js');
      await serve(options);
    });
}
