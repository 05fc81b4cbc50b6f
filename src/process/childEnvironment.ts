/**
 * What reaches this window's MCP endpoint: its socket and token, set in the integrated terminals
 * (an agent started there connects). Nothing the extension starts gets them: kernels, debuggees,
 * checkers and language servers run the project's code, which must not reach the tools by the back
 * door. A window started from another window's terminal inherits that window's pair in its
 * extension host's own environment, so every child's environment is cleaned here as well.
 */
export const ENDPOINT_SOCKET_VARIABLE = 'AGENT_LIVE_TOOLS_MCP_SOCKET';
export const ENDPOINT_TOKEN_VARIABLE = 'AGENT_LIVE_TOOLS_MCP_TOKEN';

/** `env` without the endpoint's socket and token. */
export function withoutEndpointAccess(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env[ENDPOINT_SOCKET_VARIABLE] === undefined && env[ENDPOINT_TOKEN_VARIABLE] === undefined) return env;
  const { [ENDPOINT_SOCKET_VARIABLE]: _socket, [ENDPOINT_TOKEN_VARIABLE]: _token, ...rest } = env;
  return rest;
}
