/**
 * A complete production configuration: NODE_ENV=production with every setting the checked list
 * requires (src/production-checks.ts) and nothing it forbids. Tests that build the app in
 * production mode start from it; the database and SMTP server it names are never reached by
 * `createTestApp` (the test's own database is passed in, and SMTP is only dialled to send mail).
 */
export const PRODUCTION_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'production',
  SECRET_KEY: 'production-test-secret-key',
  DATABASE_URL: 'postgres://connect@127.0.0.1:9/connect',
  PUBLIC_URL: 'https://connect.example.com',
  SMTP_URL: 'smtp://127.0.0.1:9',
  MAIL_FROM: 'Connect <no-reply@connect.example.com>',
  SUPPORT_EMAIL: 'support@connect.example.com',
  STAFF_ALERT_EMAIL: 'alerts@connect.example.com',
  // Explicit: the test helpers' configuration turns it off for scripts, which production refuses.
  SIGNUP_CAPTCHA: 'on',
};
