/** The API key every spawned shiro gets; the preload's last check sweeps every file the tests left for it. */
export const TEST_API_KEY = "test-key-not-a-secret";
