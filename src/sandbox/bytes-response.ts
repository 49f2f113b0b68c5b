// A Response for a body already held as bytes, for the in-process sandbox. Node's Response wraps
// every body in a byte ReadableStream and reads it back through it, which cost more than the rest
// of a cached page's request put together (`npm run bench`). This one answers arrayBuffer(), bytes(),
// text() and json() from the bytes, and builds a real Response (same status, headers, bytes) only when
// asked for its stream, a blob, form data or a clone after use, so every part of the Fetch API behaves
// as it does on any Response: one read, then "unusable".
const decoder = new TextDecoder();

const unusable = () => new TypeError('Response.body is unusable: the body has already been read');

export class BytesResponse extends Response {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  readonly #init: ResponseInit;
  #used = false;
  #real: Response | undefined;

  /** `bytes` is shared (a cached page): it is copied on the way out, never handed over. */
  constructor(bytes: Uint8Array<ArrayBuffer>, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
    this.#init = init;
  }

  /** The equivalent Response of Node, already read if this one was. */
  #full(): Response {
    if (this.#real === undefined) {
      // Response copies a Uint8Array body, so the shared bytes stay as they are.
      this.#real = new Response(this.#bytes, {
        status: this.status,
        statusText: this.statusText,
        headers: this.headers,
      });
      if (this.#used) void this.#real.arrayBuffer();
    }
    return this.#real;
  }

  #take(): Uint8Array<ArrayBuffer> | undefined {
    if (this.#real !== undefined || this.#used) return undefined;
    this.#used = true;
    return this.#bytes;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#take();
    return bytes
      ? Promise.resolve(bytes.slice().buffer)
      : this.#real
        ? this.#real.arrayBuffer()
        : Promise.reject(unusable());
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const bytes = this.#take();
    return bytes ? Promise.resolve(bytes.slice()) : this.#real ? this.#real.bytes() : Promise.reject(unusable());
  }

  override text(): Promise<string> {
    const bytes = this.#take();
    return bytes ? Promise.resolve(decoder.decode(bytes)) : this.#real ? this.#real.text() : Promise.reject(unusable());
  }

  // biome-ignore lint/suspicious/noExplicitAny: the signature of Response.json, which this overrides
  override json(): Promise<any> {
    const bytes = this.#take();
    if (!bytes) return this.#real ? this.#real.json() : Promise.reject(unusable());
    try {
      return Promise.resolve(JSON.parse(decoder.decode(bytes)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  override blob(): Promise<Blob> {
    return this.#full().blob();
  }

  override formData(): Promise<FormData> {
    return this.#full().formData();
  }

  override clone(): Response {
    if (this.#real === undefined && !this.#used)
      return new BytesResponse(this.#bytes, { ...this.#init, headers: new Headers(this.headers) });
    return this.#full().clone();
  }

  // Accessors, defined here so that TypeScript lets them stand where the DOM types declare properties.
  static {
    Object.defineProperties(BytesResponse.prototype, {
      body: {
        get(this: BytesResponse) {
          return this.#full().body;
        },
        configurable: true,
        enumerable: true,
      },
      bodyUsed: {
        get(this: BytesResponse) {
          return this.#real ? this.#real.bodyUsed : this.#used;
        },
        configurable: true,
        enumerable: true,
      },
    });
  }
}
