import { CliError } from '../errors/cli-error.js';
import { ExitCode } from '../errors/exit-codes.js';
import type { Profile, StoredConfig } from './profile.js';

/** The profiles on disk. Every write replaces the file atomically with mode 0600: it holds credentials. */
export interface ProfileStore {
  /** The file the profiles live in. */
  readonly path: string;
  /** The stored configuration as it is now on disk. */
  read(): StoredConfig;
  /** Sets one field of a profile, creating the profile when it is new. */
  set(profile: string, field: keyof Profile, value: string): void;
  /** Removes one field of a profile; false when it was not set. */
  unset(profile: string, field: keyof Profile): boolean;
  /** Makes `profile` the one used when neither --profile nor DATAPLATFORM_PROFILE names one. */
  use(profile: string): void;
  /** Deletes a profile; false when there was none of that name. */
  remove(profile: string): boolean;
}

/** Where the configuration lives: DATAPLATFORM_CONFIG_DIR, else the user's config directory (XDG on Linux). */
export interface StoreLocation {
  /** A directory chosen by the user; undefined for the platform's default. */
  dir?: string | undefined;
}

/** Opens the profile store with conf (loaded only now, so commands that need no settings never load it). */
export async function openProfileStore(location: StoreLocation = {}): Promise<ProfileStore> {
  const { default: Conf } = await import('conf');
  let conf: InstanceType<typeof Conf<Record<string, unknown>>>;
  try {
    conf = new Conf<Record<string, unknown>>({
      projectName: 'dataplatform',
      projectSuffix: '',
      cwd: location.dir,
      configName: 'config',
      configFileMode: 0o600,
      // Profile names are keys of one object; dots in them must not be read as paths.
      accessPropertiesByDotNotation: false,
    });
  } catch (error) {
    throw new CliError(`could not read the configuration: ${(error as Error).message}`, {
      hint: 'fix or delete the file named above; `dp config` writes a new one',
      cause: error,
    });
  }

  const read = (): StoredConfig => {
    const current = conf.get('currentProfile');
    const profiles = conf.get('profiles');
    const valid = typeof profiles === 'object' && profiles !== null && !Array.isArray(profiles);
    if (profiles !== undefined && !valid) {
      throw new CliError(`the configuration in ${conf.path} is damaged: "profiles" is not an object`, {
        exitCode: ExitCode.error,
        hint: 'fix or delete the file',
      });
    }
    return {
      currentProfile: typeof current === 'string' ? current : undefined,
      profiles: { ...((profiles ?? {}) as Record<string, Profile>) },
    };
  };

  return {
    path: conf.path,
    read,
    set(profile, field, value) {
      const { profiles } = read();
      conf.set('profiles', { ...profiles, [profile]: { ...profiles[profile], [field]: value } });
    },
    unset(profile, field) {
      const { profiles } = read();
      const stored = profiles[profile];
      if (stored?.[field] === undefined) return false;
      const { [field]: _removed, ...rest } = stored;
      conf.set('profiles', { ...profiles, [profile]: rest });
      return true;
    },
    use(profile) {
      conf.set('currentProfile', profile);
    },
    remove(profile) {
      const { profiles, currentProfile } = read();
      if (!Object.hasOwn(profiles, profile)) return false;
      const { [profile]: _removed, ...rest } = profiles;
      conf.set('profiles', rest);
      if (currentProfile === profile) conf.delete('currentProfile');
      return true;
    },
  };
}
