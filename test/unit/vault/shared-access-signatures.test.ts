import { describe } from 'vitest';
import { REDACTED } from '../../../electron/vault/redactor';
import { leavesAsWritten, takesOut } from '../../support/redaction-cases';

const R = REDACTED;

describe("an Azure shared access signature's sig, its permissions and expiry kept", () => {
  takesOut([
    [
      "a Teams workflow's trigger URL, its signature",
      'https://prod-12.westus.logic.azure.com:443/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=AbCdEf0123456789-GhIjKl_mnopQRstuVWxyz012345',
      `https://prod-12.westus.logic.azure.com:443/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${R}`,
    ],
    [
      "an Azure shared access signature in a URL's query, its permissions and expiry kept",
      'GET https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=rl&se=2026-01-01T00:00:00Z&sig=Xk9%2Fa7bQwErTy12345abcdEFGH%3D then',
      `GET https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=rl&se=2026-01-01T00:00:00Z&sig=${R} then`,
    ],
    [
      "an Azure connection string's shared access signature",
      'BlobEndpoint=https://acct.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sig=Xk9%2Fa7bQwErTy12345abcdEFGH%3D',
      `BlobEndpoint=https://acct.blob.core.windows.net/;SharedAccessSignature=sv=2022-11-02&ss=b&sig=${R}`,
    ],
    [
      'a shared access signature first in a connection string, and in HTML',
      'SharedAccessSignature=sig=Xk9a7bQwErTy12345abcdEFGH&se=2026 <a href="https://a.io/f?sp=r&amp;sig=Xk9a7bQwErTy12345abcdEFGH">',
      `SharedAccessSignature=sig=${R}&se=2026 <a href="https://a.io/f?sp=r&amp;sig=${R}">`,
    ],
    [
      "a shared access signature after an '&' escaped as \\u0026 or %26",
      'https://a.blob.core.windows.net/c/b?sv=2022-11-02\\u0026sp=r\\u0026sig=AbCdEf0123456789abcdefXYZ%3D\\u0026se=2026 next=https%3A%2F%2Fa.io%2Ff%3Fsp%3Dr%26sig%3DXk9a7bQwErTy12345abcdEFGH',
      `https://a.blob.core.windows.net/c/b?sv=2022-11-02\\u0026sp=r\\u0026sig=${R}\\u0026se=2026 next=https%3A%2F%2Fa.io%2Ff%3Fsp%3Dr%26sig%3D${R}`,
    ],
    [
      'a signature cut short in a URL, the storage version before it',
      'GET https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&sig=Xk9a7bQwErT%3D then',
      `GET https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=r&sig=${R} then`,
    ],
    [
      'a signature cut short in a connection string, and one before the storage version',
      'SharedAccessSignature=sv=2022-11-02&ss=b&sig=Xk9a7bQ https://a.io/f?sig=a7bQwE%2F&sv=2022-11-02',
      `SharedAccessSignature=sv=2022-11-02&ss=b&sig=${R} https://a.io/f?sig=${R}&sv=2022-11-02`,
    ],
  ]);
  leavesAsWritten([
    'https://acct.blob.core.windows.net/c/f.txt?sv=2022-11-02&sp=rl&sig=short and the sig= field of the form',
    'a.io/f?sp=r\\u0026sig=short\\u0026signal=AbCdEf0123456789abcdef%26sign=AbCdEf0123456789abcdef',
    // A short sig with no storage version beside it is another site's, and a word is no signature.
    'https://forum.example.com/t?id=3&sig=Ab12cd then https://a.io/f?sv=2022-11-02&sig=Ab1 x',
    'https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sig=placeholder',
  ]);
});
