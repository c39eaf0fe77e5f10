// Defined at build time by build.ts (package.json's version); running from source it is undefined, hence 0.0.0-dev.
declare const SHIRO_VERSION: string | undefined;
export const VERSION: string = typeof SHIRO_VERSION === "string" ? SHIRO_VERSION : "0.0.0-dev";
