/** One real-shaped token of each well-known format (src/secrets/token-formats.ts), by the name its marker gives. */
export const A36 = "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
export const KEY_BODY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDe0nUVyQ9Jd1vX2o5dXhQh0cS8kqTt7bY4ZmK1a2p3wAAAAJgAAAAA\n";
const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c";

export const TOKENS: [string, string][] = [
  ["GitHub token", `ghp_${A36}`],
  ["GitHub token", `gho_${A36}`],
  ["GitHub token", `ghu_${A36}`],
  ["GitHub token", `ghs_${A36}`],
  ["GitHub token", `ghr_${A36}`],
  ["GitHub token", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456"],
  ["GitLab token", "glpat-xY3zAb9Cd8Ef7Gh6Ij5K"],
  ["API key", `sk-${A36}abcdefghijkl`],
  ["API key", `sk-proj-${A36}_-${A36}`],
  ["API key", "sk-ant-api03-abcDEF123ghiJKL456mnoPQR789"],
  ["AWS access key id", "AKIAIOSFODNN7EXAMPLE"],
  ["AWS access key id", "ASIAY34FZKBOKMUTVV7A"],
  ["Slack token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"],
  ["Slack token", "xapp-1-A0123456789-0123456789012-abcdef0123456789"],
  ["Slack webhook", "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"],
  ["npm token", `npm_${A36}`],
  ["Stripe key", "sk_live_51HabcdEFGHijklMNOPqrstUVWX"],
  ["Stripe key", "rk_live_51HabcdEFGHijklMNOPqrstUVWX"],
  ["Stripe key", "sk_test_4eC39HqLyjWDarjtT1zdp7dc"],
  ["Stripe key", "whsec_AbCdEfGhIjKlMnOpQrStUvWxYz012345"],
  ["Google API key", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"],
  ["PyPI token", `pypi-AgEIcHlwaS5vcmcCJGE4ZjY3ZjE5LTk1NjAtNGE2Yy05ZjI5LWQ4YzI5ZTE0ZjE3NgACKlsz`],
  ["Hugging Face token", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"],
  ["JWT", JWT],
  ["private key", KEY_BODY.trimEnd()],
];

