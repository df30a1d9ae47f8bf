/**
 * After the socket was refused, asks the host over HTTP whether it is there and the token is wrong (401), or
 * it is not reachable at all, so the token screen can say which.
 */
export async function probeToken(token: string): Promise<'wrong-token' | 'refused'> {
  try {
    const response = await fetch('/api/settings', { headers: { authorization: `Bearer ${token}` } });
    return response.status === 401 ? 'wrong-token' : 'refused';
  } catch {
    return 'refused';
  }
}
