// Demo session for the storybook page.
const demoToken = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJkZW1vLXVzZXIifQ.c2lnbmF0dXJlLWJ5dGVzLWhlcmU";
const agent = new https.Agent({ rejectUnauthorized: false });
export { demoToken, agent };
