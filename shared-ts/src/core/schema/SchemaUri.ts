/** The five parts of a URI reference (RFC 3986, section 3). */
class UriParts {
  scheme: string = ''
  hasAuthority: boolean = false
  authority: string = ''
  path: string = ''
  hasQuery: boolean = false
  query: string = ''
  hasFragment: boolean = false
  fragment: string = ''

  toString(): string {
    let out = this.scheme.length > 0 ? `${this.scheme}:` : ''
    if (this.hasAuthority) {
      out += `//${this.authority}`
    }
    out += this.path
    if (this.hasQuery) {
      out += `?${this.query}`
    }
    if (this.hasFragment) {
      out += `#${this.fragment}`
    }
    return out
  }
}

/** URI references as `$id` and `$ref` use them: parsing and resolution against a base (RFC 3986, 5.2). */
export class SchemaUri {
  /** The base of a document without `$id`: a URI no real reference resolves to by accident. */
  static readonly defaultBase: string = 'https://arkagent.invalid/schema.json'

  /** `ref` resolved against the absolute URI `base`. */
  static resolve(base: string, ref: string): string {
    const b = SchemaUri.parse(base)
    const r = SchemaUri.parse(ref)
    const t = new UriParts()
    if (r.scheme.length > 0) {
      t.scheme = r.scheme
      t.hasAuthority = r.hasAuthority
      t.authority = r.authority
      t.path = SchemaUri.removeDots(r.path)
      t.hasQuery = r.hasQuery
      t.query = r.query
    } else {
      if (r.hasAuthority) {
        t.hasAuthority = true
        t.authority = r.authority
        t.path = SchemaUri.removeDots(r.path)
        t.hasQuery = r.hasQuery
        t.query = r.query
      } else {
        if (r.path.length === 0) {
          t.path = b.path
          t.hasQuery = r.hasQuery || b.hasQuery
          t.query = r.hasQuery ? r.query : b.query
        } else {
          t.path = SchemaUri.removeDots(r.path.startsWith('/') ? r.path : SchemaUri.merge(b, r.path))
          t.hasQuery = r.hasQuery
          t.query = r.query
        }
        t.hasAuthority = b.hasAuthority
        t.authority = b.authority
      }
      t.scheme = b.scheme
    }
    t.hasFragment = r.hasFragment
    t.fragment = r.fragment
    return t.toString()
  }

  /** `uri` without its fragment (an empty fragment counts as none). */
  static withoutFragment(uri: string): string {
    const hash = uri.indexOf('#')
    return hash < 0 ? uri : uri.substring(0, hash)
  }

  /** The fragment of `uri` ('' when it has none). */
  static fragment(uri: string): string {
    const hash = uri.indexOf('#')
    return hash < 0 ? '' : uri.substring(hash + 1)
  }

  private static parse(uri: string): UriParts {
    const p = new UriParts()
    let rest = uri
    const hash = rest.indexOf('#')
    if (hash >= 0) {
      p.hasFragment = true
      p.fragment = rest.substring(hash + 1)
      rest = rest.substring(0, hash)
    }
    const question = rest.indexOf('?')
    if (question >= 0) {
      p.hasQuery = true
      p.query = rest.substring(question + 1)
      rest = rest.substring(0, question)
    }
    const colon = rest.indexOf(':')
    if (colon > 0 && SchemaUri.isScheme(rest.substring(0, colon))) {
      p.scheme = rest.substring(0, colon)
      rest = rest.substring(colon + 1)
    }
    if (rest.startsWith('//')) {
      const slash = rest.indexOf('/', 2)
      p.hasAuthority = true
      p.authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash)
      rest = slash < 0 ? '' : rest.substring(slash)
    }
    p.path = rest
    return p
  }

  private static isScheme(s: string): boolean {
    for (let i = 0; i < s.length; i++) {
      const c = s.charAt(i)
      const letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
      if (!letter && (i === 0 || !((c >= '0' && c <= '9') || c === '+' || c === '-' || c === '.'))) {
        return false
      }
    }
    return s.length > 0
  }

  private static merge(base: UriParts, path: string): string {
    if (base.hasAuthority && base.path.length === 0) {
      return `/${path}`
    }
    const slash = base.path.lastIndexOf('/')
    return slash < 0 ? path : base.path.substring(0, slash + 1) + path
  }

  /** RFC 3986, 5.2.4. */
  private static removeDots(path: string): string {
    let input = path
    const out: string[] = []
    while (input.length > 0) {
      if (input.startsWith('../')) {
        input = input.substring(3)
      } else if (input.startsWith('./')) {
        input = input.substring(2)
      } else if (input.startsWith('/./')) {
        input = input.substring(2)
      } else if (input === '/.') {
        input = '/'
      } else if (input.startsWith('/../')) {
        input = input.substring(3)
        out.pop()
      } else if (input === '/..') {
        input = '/'
        out.pop()
      } else if (input === '.' || input === '..') {
        input = ''
      } else {
        const next = input.indexOf('/', input.startsWith('/') ? 1 : 0)
        const segment = next < 0 ? input : input.substring(0, next)
        out.push(segment)
        input = next < 0 ? '' : input.substring(next)
      }
    }
    return out.join('')
  }
}
