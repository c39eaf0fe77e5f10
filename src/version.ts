// Defined at build time by build.ts (package.json's version); running from source it is undefined, hence 0.0.0-dev.
declare const SHIRO_VERSION: string | undefined;
export const VERSION: string = typeof SHIRO_VERSION === "string" ? SHIRO_VERSION : "0.0.0-dev";

// A hash of the sources the binary was built from (build.ts); running from source, none: no cache keyed by it is read or written.
declare const SHIRO_BUILD: string | undefined;
export const BUILD: string | undefined = typeof SHIRO_BUILD === "string" ? SHIRO_BUILD : undefined;
