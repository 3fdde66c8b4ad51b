/** What a ContentPart holds: text, reasoning, an image, audio, a resource or structured JSON. */
export enum ContentPartType {
  text = 'text',
  reasoning = 'reasoning',
  /** Base64 image bytes with their MIME type (a tool's screenshot, an MCP image result). */
  image = 'image',
  /** Base64 audio bytes with their MIME type. */
  audio = 'audio',
  /** A resource named by URI: embedded text, embedded base64 bytes, or neither (a link). */
  resource = 'resource',
  /** Structured content: `text` holds one JSON value. */
  json = 'json'
}

/** Every part type, as stored. */
export const PART_TYPES: string[] = [ContentPartType.text, ContentPartType.reasoning, ContentPartType.image,
  ContentPartType.audio, ContentPartType.resource, ContentPartType.json]

/** A base64 alphabet character (RFC 4648 §4: A-Z a-z 0-9 + /). */
function isBase64Char(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47
}

/**
 * One piece of a message's content. Reasoning is kept apart so providers can omit it on the way back.
 * Non-text parts (image, audio, resource, json) keep their bytes and MIME type as typed fields, so a
 * tool result that carries an image stays an image in history and in storage; `modelText()` is what
 * a text-only model is sent for it.
 * Immutable (read-only accessors): parts are shared between history, snapshots and hook contexts.
 */
export class ContentPart {
  private readonly partType: ContentPartType
  private readonly partText: string
  private readonly partMime: string
  private readonly partData: string
  private readonly partUri: string

  private constructor(type: ContentPartType, text: string, mimeType: string = '', data: string = '',
    uri: string = '') {
    this.partType = type
    this.partText = text
    this.partMime = mimeType
    this.partData = data
    this.partUri = uri
  }

  get type(): ContentPartType {
    return this.partType
  }

  /** The text: of a text, reasoning or json part, or a resource's embedded text; '' otherwise. */
  get text(): string {
    return this.partText
  }

  /** MIME type of an image, audio or resource part; '' when none. */
  get mimeType(): string {
    return this.partMime
  }

  /** Base64 bytes of an image, audio or binary resource part; '' when none. */
  get data(): string {
    return this.partData
  }

  /** URI of a resource part; '' otherwise. */
  get uri(): string {
    return this.partUri
  }

  static text(text: string): ContentPart {
    return new ContentPart(ContentPartType.text, text)
  }

  static reasoning(text: string): ContentPart {
    return new ContentPart(ContentPartType.reasoning, text)
  }

  /** An image; `base64` must be standard padded base64 (checked where parts enter the runtime). */
  static image(mimeType: string, base64: string): ContentPart {
    return new ContentPart(ContentPartType.image, '', mimeType, base64)
  }

  static audio(mimeType: string, base64: string): ContentPart {
    return new ContentPart(ContentPartType.audio, '', mimeType, base64)
  }

  /** A resource: give `text` for a text resource, `base64` for a binary one, neither for a link. */
  static resource(uri: string, mimeType: string = '', text: string = '', base64: string = ''): ContentPart {
    return new ContentPart(ContentPartType.resource, text, mimeType, base64, uri)
  }

  /** Structured content as JSON text (use `JSON.stringify`); checked to parse where it enters. */
  static json(jsonText: string): ContentPart {
    return new ContentPart(ContentPartType.json, jsonText)
  }

  isText(): boolean {
    return this.type === ContentPartType.text
  }

  /** True for the parts a text-only request cannot carry as they are (image, audio, resource, json). */
  isTyped(): boolean {
    return this.type !== ContentPartType.text && this.type !== ContentPartType.reasoning
  }

  /**
   * What a text-only model is sent for this part: text as it is; json as its JSON; a resource's
   * text under a `[resource <uri>]` line; bytes as a one-line description with type and size (the
   * bytes themselves stay in the part). Reasoning gives '' (it is sent, if at all, by the provider).
   */
  modelText(): string {
    const t = this.partType
    if (t === ContentPartType.text || t === ContentPartType.json) {
      return this.partText
    }
    if (t === ContentPartType.reasoning) {
      return ''
    }
    const mime = this.partMime.length > 0 ? ` ${this.partMime}` : ''
    if (t === ContentPartType.resource) {
      const head = `[resource ${this.partUri}${mime}`
      if (this.partText.length > 0) {
        return `${head}]\n${this.partText}`
      }
      return this.partData.length > 0 ? `${head}, ${ContentPart.byteLength(this.partData)} bytes]` : `${head}]`
    }
    return `[${t}${mime}, ${ContentPart.byteLength(this.partData)} bytes]`
  }

  /**
   * What a text-only model is sent for `parts`: adjacent text parts joined as they are, each typed
   * part on its own line as its `modelText()`, and text after a typed part on a line of its own (a
   * resource's text never runs into the next block). A json part is left out only when a text part
   * already holds the same JSON (MCP servers often send structured content again as text; the model
   * needs it once).
   */
  static modelTextOf(parts: ContentPart[]): string {
    const texts: string[] = []
    for (let i = 0; i < parts.length; i++) {
      if (parts[i].type === ContentPartType.text) {
        texts.push(ContentPart.canonicalJson(parts[i].text))
      }
    }
    let out = ''
    let afterTyped = false
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]
      if (p.type === ContentPartType.text) {
        if (p.text.length > 0) {
          if (afterTyped && !out.endsWith('\n')) {
            out += '\n'
          }
          out += p.text
          afterTyped = false
        }
      } else if (p.type !== ContentPartType.reasoning && !(p.type === ContentPartType.json && texts.length > 0 &&
        texts.indexOf(ContentPart.canonicalJson(p.text)) >= 0)) {
        if (out.length > 0 && !out.endsWith('\n')) {
          out += '\n'
        }
        out += p.modelText()
        afterTyped = true
      }
    }
    return out
  }

  /** `text` re-serialised when it is JSON (so equal documents compare equal), '' when it is not. */
  private static canonicalJson(text: string): string {
    const t = text.trim()
    if (!(t.startsWith('{') || t.startsWith('['))) {
      return ''
    }
    try {
      return JSON.stringify(JSON.parse(t) as Object)
    } catch (e) {
      return ''
    }
  }

  /** Bytes encoded by padded base64 text. */
  static byteLength(base64: string): number {
    const n = base64.length
    if (n === 0) {
      return 0
    }
    const pad = base64.charAt(n - 1) !== '=' ? 0 : base64.charAt(n - 2) === '=' ? 2 : 1
    return Math.floor(n / 4) * 3 - pad
  }

  /** True when `text` is standard padded base64 ('' included). A loop, not a regex: images are megabytes. */
  static isBase64(text: string): boolean {
    const n = text.length
    if (n % 4 !== 0) {
      return false
    }
    const pad = n === 0 || text.charCodeAt(n - 1) !== 61 ? 0 : text.charCodeAt(n - 2) === 61 ? 2 : 1
    for (let i = 0; i < n - pad; i++) {
      if (!isBase64Char(text.charCodeAt(i))) {
        return false
      }
    }
    return true
  }

  /**
   * '' when this part's fields fit its type, else what is wrong: image and audio need a MIME type
   * and base64 data; a resource needs a URI and at most one of text and data, base64 if data; json
   * must parse. Text and reasoning parts carry nothing else.
   */
  problem(): string {
    const t = this.partType
    if (t === ContentPartType.text || t === ContentPartType.reasoning) {
      return this.partMime.length > 0 || this.partData.length > 0 || this.partUri.length > 0 ?
        `a ${t} part carries only text` : ''
    }
    if (t === ContentPartType.json) {
      try {
        JSON.parse(this.partText)
      } catch (e) {
        return 'a json part needs text that parses as JSON'
      }
      return ''
    }
    if (!ContentPart.isBase64(this.partData)) {
      return `the ${t} part's data is not standard padded base64`
    }
    if (t === ContentPartType.resource) {
      if (this.partUri.length === 0) {
        return 'a resource part needs a uri'
      }
      return this.partText.length > 0 && this.partData.length > 0 ? 'a resource part has text or data, not both' : ''
    }
    if (this.partMime.length === 0) {
      return `an ${t} part needs a MIME type`
    }
    if (this.partData.length === 0) {
      return `an ${t} part needs data`
    }
    return this.partText.length > 0 || this.partUri.length > 0 ? `an ${t} part carries only its bytes` : ''
  }

  /** A part of any type from its fields (the codec's and checks' single way back in). */
  static of(type: ContentPartType, text: string, mimeType: string, data: string, uri: string): ContentPart {
    return new ContentPart(type, text, mimeType, data, uri)
  }
}
