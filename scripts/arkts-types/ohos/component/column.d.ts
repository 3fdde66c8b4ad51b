interface ColumnOptions {
  space?: string | number;
}

interface ColumnInterface {
  (value?: ColumnOptions): ColumnAttribute;
}

declare class ColumnAttribute extends CommonMethod<ColumnAttribute> {
  alignItems(value: HorizontalAlign): ColumnAttribute;
  justifyContent(value: FlexAlign): ColumnAttribute;
}

declare const Column: ColumnInterface;
declare const ColumnInstance: ColumnAttribute;
