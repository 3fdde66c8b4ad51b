interface SpanInterface {
  (value: string | Resource): SpanAttribute;
}

declare class SpanAttribute extends CommonMethod<SpanAttribute> {
  fontSize(value: number | string): SpanAttribute;
  fontColor(value: ResourceColor): SpanAttribute;
  fontWeight(value: number | FontWeight | string): SpanAttribute;
}

declare const Span: SpanInterface;
declare const SpanInstance: SpanAttribute;
