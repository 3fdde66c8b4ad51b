// ForEach (API 12): the SDK declares its callbacks with `any`; ArkTS code passes typed arrows.
interface ForEachInterface {
  (arr: Array<any>, itemGenerator: (item: any, index: number) => void,
    keyGenerator?: (item: any, index: number) => string): ForEachAttribute;
}

declare class ForEachAttribute extends DynamicNode<ForEachAttribute> {}

declare class DynamicNode<T> {}

declare const ForEach: ForEachInterface;
