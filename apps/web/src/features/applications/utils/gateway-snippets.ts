/**
 * The platform API as an application calls it: an access token from `POST /oauth2/token` (client
 * credentials), then JSON-RPC to `POST /api/gateway/{network}`. The gateway takes a network's id or
 * its code; the examples use the code, which reads better in a URL. Both examples are run for real
 * by e2e/newcomer.spec.ts, so they stay in step with the server.
 */

/** The one thing a user must fill in: the client secret is shown once, never again. */
export const SECRET_PLACEHOLDER = '<your client secret>';

export type SnippetTarget = {
  /** The portal's own origin, e.g. `https://connect.example.com` (the API lives beside the SPA). */
  origin: string;
  clientId: string;
  networkCode: string;
};

/** Where an application exchanges its client credentials for an OAuth access token. */
export const accessTokenUrl = (origin: string) => `${origin}/oauth2/token`;
export const gatewayUrl = (origin: string, networkCode: string) =>
  `${origin}/api/gateway/${encodeURIComponent(networkCode)}`;

/** A shell session: the access token (pulled out of the JSON with sed, no jq needed), then eth_chainId. */
export function curlSnippet({ origin, clientId, networkCode }: SnippetTarget): string {
  return `# The client secret was shown once, when the application was registered or its secret rotated.
CLIENT_SECRET='${SECRET_PLACEHOLDER}'

ACCESS_TOKEN=$(curl -s ${accessTokenUrl(origin)} \\
  -d grant_type=client_credentials \\
  -d client_id=${clientId} \\
  --data-urlencode "client_secret=$CLIENT_SECRET" \\
  | sed -E 's/.*"access_token":"([^"]*)".*/\\1/')

curl -s ${gatewayUrl(origin, networkCode)} \\
  -H "Authorization: Bearer $ACCESS_TOKEN" \\
  -H 'Content-Type: application/json' \\
  -d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}'`;
}

/** A Node.js (ES module) script with viem: the secret comes from the environment, not the source. */
export function viemSnippet({ origin, clientId, networkCode }: SnippetTarget): string {
  return `import { createPublicClient, http } from 'viem';

// The client secret was shown once, when the application was registered or its secret rotated.
const CLIENT_SECRET = process.env.CLIENT_SECRET; // export CLIENT_SECRET='${SECRET_PLACEHOLDER}'

const response = await fetch('${accessTokenUrl(origin)}', {
  method: 'POST',
  body: new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: '${clientId}',
    client_secret: CLIENT_SECRET,
  }),
});
const { access_token } = await response.json();

const client = createPublicClient({
  transport: http('${gatewayUrl(origin, networkCode)}', {
    fetchOptions: { headers: { Authorization: \`Bearer \${access_token}\` } },
  }),
});

console.log(await client.getChainId());`;
}
