import type { Factory } from '../../factory.js';

/** The profile `dp config` reads and writes: the one --profile, DATAPLATFORM_PROFILE or `profiles use` chose. */
export async function targetProfile(f: Factory): Promise<string> {
  return (await f.settings()).profile.value;
}
