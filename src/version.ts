// Kept in step with package.json by test/package/version.test.ts; used for the default User-Agent.
export const PACKAGE_NAME = 'baas-pix-contract';
export const PACKAGE_VERSION = '1.0.0';
