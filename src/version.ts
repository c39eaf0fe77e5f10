// Replaced at build time by build.ts; running from source reads package.json's version instead.
declare const SHIRO_VERSION: string | undefined;
export const VERSION: string = typeof SHIRO_VERSION === "string" ? SHIRO_VERSION : "0.0.0-dev";
