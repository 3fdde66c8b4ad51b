interface DividerInterface {
  (): DividerAttribute;
}

declare class DividerAttribute extends CommonMethod<DividerAttribute> {}

declare const Divider: DividerInterface;
declare const DividerInstance: DividerAttribute;

interface BlankInterface {
  (min?: number | string): BlankAttribute;
}

declare class BlankAttribute extends CommonMethod<BlankAttribute> {}

declare const Blank: BlankInterface;
declare const BlankInstance: BlankAttribute;
