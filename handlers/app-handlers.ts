import type { AreaHandlers, HandlerContext } from './types';

export function appHandlers(ctx: HandlerContext): AreaHandlers<'app.info'> {
  return {
    // Read on each call: the keychain problem or sandbox address may change after start-up.
    'app.info': async () => ctx.appInfo(),
  };
}
