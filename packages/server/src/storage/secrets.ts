/** Secrets the server makes for itself and every instance must share, such as the session signing key. */
export interface ServerSecretStore {
  /** The secret called `name`; made with `make` and stored when there is none yet (the first instance wins). */
  getOrCreate(name: string, make: () => string): Promise<string>;
}
