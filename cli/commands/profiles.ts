import { Command } from 'commander';
import { PrivacyDeskError } from '../../shared/errors';
import type { Credentials } from '../../shared/profile';
import { API_KEY_ENV, API_SECRET_ENV, credentialsFromEnv, openDesk } from '../connection';
import type { CliContext } from '../context';
import type { CliIo } from '../io';
import { promptHidden } from '../prompt';
import { formatTable } from '../table';

export function profilesCommand({ io, out }: CliContext): Command {
  const profiles = new Command('profiles').description('saved connection profiles (credentials in the OS keychain)');

  profiles
    .command('list')
    .description('list the saved profiles')
    .option('--json', 'print JSON on stdout')
    .action(async (opts: { json?: boolean }) => {
      const desk = await openDesk({ keychain: true }, io.env);
      const { profiles: views, activeId } = await desk.listProfiles();
      if (opts.json) return out.json({ profiles: views, activeId });
      if (views.length === 0) return out.line('No profiles yet. Add one with: privacy-desk profiles add --name NAME --base-url URL --app NAME');
      out.line(
        formatTable(views, [
          { title: '', value: (v) => (v.id === activeId ? '*' : '') },
          { title: 'NAME', value: (v) => v.name },
          { title: 'ID', value: (v) => v.id },
          { title: 'BASE URL', value: (v) => v.baseUrl },
          { title: 'APPLICATION', value: (v) => v.applicationName },
          { title: 'KEY', value: (v) => (v.apiKeyHint ? `…${v.apiKeyHint}` : '') },
          { title: 'CREDENTIALS', value: (v) => (v.hasCredentials ? v.credentialStorage : 'missing') },
        ]),
      );
      const status = desk.keychainStatus();
      if (!status.available) out.note(`warning: ${status.problem}`);
    });

  profiles
    .command('add')
    .description(`save a profile; key and secret from ${API_KEY_ENV} and ${API_SECRET_ENV}, or asked for on a terminal`)
    .requiredOption('--name <name>', 'a name to tell profiles apart, e.g. "Production"')
    .requiredOption('--base-url <url>', 'the service address, e.g. https://debate.example.com')
    .requiredOption('--app <name>', 'application name (its short name in the service’s administration panel)')
    .option('--json', 'print the saved profile as JSON on stdout')
    .action(async (opts: { name: string; baseUrl: string; app: string; json?: boolean }) => {
      const desk = await openDesk({ keychain: true }, io.env);
      const status = desk.keychainStatus();
      if (!status.available) {
        // The CLI ends with the command: session-only credentials would be lost at once.
        throw new PrivacyDeskError({ code: 'KEYCHAIN_UNAVAILABLE', message: `Cannot save the profile: ${status.problem} For one-off use, run commands with --base-url and --app instead.` });
      }
      const credentials = await askCredentials(io);
      const view = await desk.saveProfile({ name: opts.name, baseUrl: opts.baseUrl, applicationName: opts.app, ...credentials });
      if (opts.json) return out.json(view);
      out.line(`Saved profile “${view.name}” (id ${view.id}, key …${view.apiKeyHint}); key and secret are in the OS keychain.`);
    });

  profiles
    .command('remove <name>')
    .description('remove a profile and its keychain entry')
    .requiredOption('--confirm <name>', 'repeat the profile name exactly, to confirm')
    .action(async (name: string, opts: { confirm: string }) => {
      const desk = await openDesk({ keychain: true }, io.env);
      const profile = await desk.findProfile(name);
      await desk.removeProfile(profile.id, opts.confirm);
      out.line(`Removed profile “${profile.name}” and its keychain entry.`);
    });

  profiles
    .command('use <name>')
    .description('make a profile the active one (used when no --profile is given)')
    .action(async (name: string) => {
      const desk = await openDesk({ keychain: true }, io.env);
      const profile = await desk.findProfile(name);
      await desk.setActiveProfile(profile.id);
      out.line(`Active profile: “${profile.name}”.`);
    });

  profiles
    .command('start-fresh')
    .description('only when profiles.json is damaged: keep it aside as profiles.json.corrupt-<time> and start with no profiles')
    .action(async () => {
      const desk = await openDesk({ keychain: false }, io.env);
      const { setAsidePath } = await desk.startFresh();
      out.line(setAsidePath ? `The damaged file was kept as ${setAsidePath}. There are no profiles now.` : `${desk.profilesPath} is fine; nothing was changed.`);
    });

  return profiles;
}

async function askCredentials(io: CliIo): Promise<Credentials> {
  const { env } = io;
  if (env[API_KEY_ENV] && env[API_SECRET_ENV]) return credentialsFromEnv(env);
  // Without a terminal to ask on, the variables are the only way in: name the missing one(s).
  if (!io.stdin.isTTY) return credentialsFromEnv(env, 'profiles add reads the new profile’s keys from the environment when there is no terminal to ask on');
  const apiKey = env[API_KEY_ENV] || (await promptHidden('API key: ', io));
  const apiSecret = env[API_SECRET_ENV] || (await promptHidden('Secret key: ', io));
  return { apiKey, apiSecret };
}
