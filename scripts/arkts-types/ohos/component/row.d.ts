interface RowOptions {
  space?: string | number;
}

interface RowInterface {
  (value?: RowOptions): RowAttribute;
}

declare class RowAttribute extends CommonMethod<RowAttribute> {
  alignItems(value: VerticalAlign): RowAttribute;
  justifyContent(value: FlexAlign): RowAttribute;
}

declare const Row: RowInterface;
declare const RowInstance: RowAttribute;
