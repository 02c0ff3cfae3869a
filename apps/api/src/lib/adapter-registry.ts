/**
 * A registry of named adapters (the renewals' payment gateway, the e-invoicing service): the
 * app's start configures one by name (an unknown name fails there), tests register their own,
 * and each adapter is made once and kept.
 */
export interface AdapterRegistry<A extends { readonly name: string }> {
  /** The app's start names the adapter of its configuration; unknown names fail there. */
  configure(name: string): void;
  /** Tests put their own adapter under its name. */
  register(adapter: A): void;
  /** The configured adapter, or the one named. */
  get(name?: string): A;
}

/** `setting` names the environment variable in the error of an unknown name. */
export function adapterRegistry<A extends { readonly name: string }>(
  setting: string,
  factories: Record<string, () => A>,
  initial: string,
): AdapterRegistry<A> {
  const known: Record<string, () => A> = { ...factories };
  const instances = new Map<string, A>();
  let configured = initial;
  const get = (name: string = configured): A => {
    const existing = instances.get(name);
    if (existing) return existing;
    const factory = known[name];
    if (!factory) throw new Error(`unknown ${setting} ${name}`);
    const adapter = factory();
    instances.set(name, adapter);
    return adapter;
  };
  return {
    configure(name) {
      get(name);
      configured = name;
    },
    register(adapter) {
      instances.set(adapter.name, adapter);
      known[adapter.name] = () => adapter;
    },
    get,
  };
}
