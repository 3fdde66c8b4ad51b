// The preferences file as a device writes and reads it (distributeddatamgr_preferences 5.0.0,
// frameworks/native/src/preferences_xml_utils.cpp over libxml2 2.9.14 — third_party_libxml2's
// README.OpenSource at OpenHarmony-v5.0.0-Release):
// - WriteSettingXml builds <preferences version="1.0"> with one element per key and saves it with
//   xmlSaveFormatFileEnc(file, doc, "UTF-8", 1). Text goes out escaped for & < > and CR (&#13;),
//   attributes (the key) for & < > " LF CR TAB; every other character is written as it is — also
//   the ones XML 1.0 forbids (C0 controls but TAB/LF/CR, U+FFFE, U+FFFF, lone surrogates).
// - ReadSettingXml parses with xmlReadFile(file, "UTF-8", XML_PARSE_NOBLANKS | XML_PARSE_HUGE): a
//   forbidden character, bad UTF-8, an unknown entity or an element it does not know fails the
//   WHOLE file. Verified against libxml2 2.9.14 with a C program doing exactly those calls: ESC, VT,
//   FF, 0x01, 0x1F, U+FFFE, U+FFFF and an encoded lone surrogate fail the read; TAB, LF, CR, CRLF,
//   DEL, C1 controls, whitespace-only and empty values come back unchanged; so do keys with TAB,
//   LF, CR, '"', '<' and '&'.
import { isUtf8 } from 'node:buffer'
import fs from 'node:fs'

export type ValueType = number | string | boolean | Array<number> | Array<string> | Array<boolean> | Uint8Array | object | bigint

const FORBIDDEN = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]/

function text(s: string): string {
  return /[&<>\r]/.test(s) ? s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;') : s
}

function attr(s: string): string {
  return s.replace(/[&<>"\n\r\t]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' })[c] as string)
}

function keyAttr(key: string): string {
  // CreateStringNode / CreatePrimitiveNode: no key attribute for an empty key.
  return key.length > 0 ? ` key="${attr(key)}"` : ''
}

function element(key: string, value: ValueType, indent: string): string {
  const k = keyAttr(key)
  if (typeof value === 'string') return `${indent}<string${k}>${text(value)}</string>\n`
  if (typeof value === 'boolean') return `${indent}<bool${k} value="${value}"/>\n`
  if (typeof value === 'number') return `${indent}<double${k} value="${value}"/>\n`
  if (typeof value === 'bigint') return `${indent}<BigInt${k}>\n${indent}  <uint64_t value="${value}"/>\n${indent}</BigInt>\n`
  if (value instanceof Uint8Array) return `${indent}<uint8Array${k}>${Buffer.from(value).toString('base64')}</uint8Array>\n`
  if (Array.isArray(value)) {
    const tag = value.length > 0 && typeof value[0] === 'number' ? 'doubleArray' : value.length > 0 && typeof value[0] === 'boolean' ? 'boolArray' : 'stringArray'
    if (value.length === 0) return `${indent}<${tag} key="${attr(key)}"/>\n`
    return `${indent}<${tag} key="${attr(key)}">\n${(value as ValueType[]).map((v) => element('', v, indent + '  ')).join('')}${indent}</${tag}>\n`
  }
  return `${indent}<object${k}>${text(JSON.stringify(value))}</object>\n`
}

/** The document xmlSaveFormatFileEnc writes for `values`. */
export function serialize(values: Map<string, ValueType>): string {
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n<preferences version="1.0">\n'
  for (const [key, value] of values) out += element(key, value, '  ')
  return out + '</preferences>\n'
}

/** UTF-8 as the native side writes it: a lone surrogate becomes its 3-byte form (which libxml2 rejects). */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

export function encode(s: string): Buffer {
  if (!LONE.test(s)) return Buffer.from(s, 'utf8')
  const out: number[] = []
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i) as number
    if (c > 0xffff) {
      out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f))
      i++
    } else if (c >= 0x800) {
      out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f))
    } else if (c >= 0x80) {
      out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f))
    } else {
      out.push(c)
    }
  }
  return Buffer.from(out)
}

class Fail extends Error {}

/** A parsed element: its tag, attributes, text content and element children. */
interface Node { tag: string, attrs: Map<string, string>, content: string, children: Node[] }

class Parser {
  private pos = 0
  constructor(private readonly s: string) {}

  document(): Node {
    if (this.s.startsWith('<?xml')) {
      const end = this.s.indexOf('?>')
      if (end < 0) throw new Fail()
      this.pos = end + 2
    }
    this.blanks()
    const root = this.element()
    this.blanks()
    if (this.pos !== this.s.length) throw new Fail() // "Extra content at the end of the document"
    return root
  }

  private blanks(): void {
    while (this.pos < this.s.length && ' \t\n'.includes(this.s[this.pos])) this.pos++
  }

  private name(): string {
    const m = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(this.s.slice(this.pos, this.pos + 64))
    if (m === null) throw new Fail()
    this.pos += m[0].length
    return m[0]
  }

  private element(): Node {
    if (this.s[this.pos] !== '<') throw new Fail()
    this.pos++
    const tag = this.name()
    const attrs = new Map<string, string>()
    for (;;) {
      this.blanks()
      if (this.s.startsWith('/>', this.pos)) {
        this.pos += 2
        return { tag, attrs, content: '', children: [] }
      }
      if (this.s[this.pos] === '>') {
        this.pos++
        break
      }
      const n = this.name()
      this.blanks()
      if (this.s[this.pos] !== '=') throw new Fail()
      this.pos++
      this.blanks()
      const q = this.s[this.pos]
      if (q !== '"' && q !== "'") throw new Fail()
      const end = this.s.indexOf(q, this.pos + 1)
      if (end < 0) throw new Fail()
      const raw = this.s.slice(this.pos + 1, end)
      if (raw.includes('<') || attrs.has(n)) throw new Fail()
      // Attribute-value normalisation: literal whitespace becomes a space; character references stay.
      attrs.set(n, entities(raw.replace(/[\t\n]/g, ' ')))
      this.pos = end + 1
    }
    let content = ''
    const children: Node[] = []
    for (;;) {
      const lt = this.s.indexOf('<', this.pos)
      if (lt < 0) throw new Fail()
      const chunk = this.s.slice(this.pos, lt)
      this.pos = lt
      if (this.s.startsWith('</', this.pos)) {
        content += chunk
        this.pos += 2
        if (this.name() !== tag) throw new Fail()
        this.blanks()
        if (this.s[this.pos] !== '>') throw new Fail()
        this.pos++
        break
      }
      if (chunk.trim().length > 0) content += chunk
      children.push(this.element())
    }
    const decoded = entities(content)
    // XML_PARSE_NOBLANKS drops whitespace-only text between elements, never the text of a leaf.
    return { tag, attrs, content: children.length > 0 && decoded.trim().length === 0 ? '' : decoded, children }
  }
}

const NAMED = /&(amp|lt|gt|quot|apos);/g
const NAMED_VALUE: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function entities(raw: string): string {
  if (!raw.includes('&')) return raw
  if (!raw.includes('&#')) {
    // Only the five named ones may appear without a DTD; anything else is an undefined entity.
    if (/&(?!(?:amp|lt|gt|quot|apos);)/.test(raw)) throw new Fail()
    return raw.replace(NAMED, (whole, name: string) => NAMED_VALUE[name])
  }
  return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Fail()
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
    if (named[ref] !== undefined) return named[ref]
    const m = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(ref)
    if (m === null) throw new Fail() // an entity no DTD declares
    const c = m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2] as string, 10)
    // xmlParseCharRef: only characters XML 1.0 allows.
    if (!(c === 9 || c === 10 || c === 13 || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff))) throw new Fail()
    return String.fromCodePoint(c)
  })
}

const PRIMITIVE = ['int', 'long', 'bool', 'float', 'double', 'uint64_t']
const STRINGY = ['string', 'uint8Array', 'object']
const ARRAYS = ['boolArray', 'stringArray', 'doubleArray', 'BigInt', 'set']

function valueOf(node: Node): ValueType {
  if (PRIMITIVE.includes(node.tag)) {
    const v = node.attrs.get('value')
    if (v === undefined) throw new Fail() // ParsePrimitiveNodeElement needs a value attribute
    return node.tag === 'bool' ? v === 'true' : Number(v)
  }
  if (STRINGY.includes(node.tag)) {
    if (node.tag === 'uint8Array') return new Uint8Array(Buffer.from(node.content, 'base64'))
    return node.tag === 'object' ? JSON.parse(node.content) as object : node.content
  }
  if (ARRAYS.includes(node.tag)) {
    if (!node.attrs.has('key')) throw new Fail() // ParseArrayNodeElement needs a key
    const items = node.children.map(valueOf)
    if (node.tag === 'BigInt') return BigInt(String(items[0] ?? 0))
    return items as Array<string>
  }
  throw new Fail() // "An unsupported element type was encountered in parsing"
}

/** ReadSettingXml of one file's bytes: its values, or undefined when libxml2 would not read it. */
export function parse(bytes: Uint8Array): Map<string, ValueType> | undefined {
  // "Input is not proper UTF-8" (encoded lone surrogates included).
  if (!isUtf8(bytes)) return undefined
  const s = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  if (FORBIDDEN.test(s)) return undefined // "PCDATA invalid Char value" / "Char 0xFFFE out of allowed range"
  try {
    const root = new Parser(s.replace(/\r\n?/g, '\n')).document()
    if (root.tag !== 'preferences') return undefined
    const values = new Map<string, ValueType>()
    for (const child of root.children) {
      const key = child.attrs.get('key') ?? ''
      // ReadXmlElement: std::map::insert keeps the first of two equal keys.
      if (!values.has(key)) values.set(key, valueOf(child))
    }
    return values
  } catch (e) {
    if (e instanceof Fail || e instanceof SyntaxError) return undefined
    throw e
  }
}

const exists = (file: string): boolean => {
  try {
    fs.statSync(file)
    return true
  } catch {
    return false // stat fails for a missing file and for a name past NAME_MAX (ENAMETOOLONG) alike
  }
}

const rename = (from: string, to: string): boolean => {
  try {
    fs.renameSync(from, to)
    return true
  } catch {
    return false
  }
}

const remove = (file: string): void => {
  try {
    fs.rmSync(file)
  } catch {
    // std::remove failing is only logged
  }
}

/** RenameFromBackupFile: a readable `.bak` replaces the file; an unreadable one is removed. */
function restoreBackup(file: string): boolean {
  const bak = `${file}.bak`
  if (!exists(bak)) return false
  if (parse(fs.readFileSync(bak)) === undefined) {
    remove(bak)
    return false
  }
  return rename(bak, file)
}

/**
 * XmlReadFile + ReadSettingXml: the file's values and how many bytes were parsed, or undefined
 * (nothing is loaded). A file that does not parse is renamed `.broken` — when that rename fails
 * (a name past 248 bytes), nothing else is tried — and a readable `.bak` takes its place.
 */
export function readFile(file: string): { values: Map<string, ValueType>, bytes: number } | undefined {
  let bytes = 0
  if (exists(file)) {
    const data = fs.readFileSync(file)
    bytes += data.length
    const values = parse(data)
    if (values !== undefined) return { values, bytes }
    if (!rename(file, `${file}.broken`)) return undefined
  }
  if (!restoreBackup(file)) return undefined
  const data = fs.readFileSync(file)
  const values = parse(data)
  return values !== undefined ? { values, bytes: bytes + data.length } : undefined
}

/**
 * XmlSaveFormatFileEnc: the file is renamed `.bak` (a failed rename — a name past 251 bytes —
 * fails the flush), the new file written, then the `.bak` removed. A failed write restores the `.bak`.
 */
export function writeFile(file: string, values: Map<string, ValueType>): boolean {
  if (exists(file) && !rename(file, `${file}.bak`)) return false
  try {
    fs.writeFileSync(file, encode(serialize(values)))
  } catch {
    if (exists(file)) rename(file, `${file}.broken`)
    restoreBackup(file)
    return false
  }
  remove(`${file}.bak`)
  return true
}

/** DeletePreferences: the file, its `.bak` and `.broken`; false when one of them is still there. */
export function deleteFiles(file: string): boolean {
  for (const f of [file, `${file}.bak`, `${file}.broken`]) remove(f)
  return !exists(file) && !exists(`${file}.bak`) && !exists(`${file}.broken`)
}
