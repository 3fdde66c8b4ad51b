interface TextInterface {
  (content?: string | Resource, value?: TextOptions): TextAttribute;
}

interface TextOptions {
  controller: Object;
}

declare class Resource {
  readonly id: number;
}

declare class TextAttribute extends CommonMethod<TextAttribute> {
  fontSize(value: number | string): TextAttribute;
  fontColor(value: ResourceColor): TextAttribute;
  fontWeight(value: number | FontWeight | string): TextAttribute;
  maxLines(value: number): TextAttribute;
}

declare const Text: TextInterface;
declare const TextInstance: TextAttribute;
