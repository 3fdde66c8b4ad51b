// ArkUI common declarations (API 12): decorators, the struct base and the shared attributes.
declare const Entry: ClassDecorator & ((storage?: Object) => ClassDecorator);
declare const Component: ClassDecorator;
declare const State: PropertyDecorator;
declare const Prop: PropertyDecorator;
declare const Link: PropertyDecorator;
declare const ObjectLink: PropertyDecorator;
declare const Observed: ClassDecorator;
declare const Builder: MethodDecorator;
declare const Styles: MethodDecorator;

declare type Length = string | number;
declare type ResourceStr = string | Resource;
/** A resource reference by literal name, e.g. `$r('app.string.btn_send')`; params fill %d/%s. */
declare function $r(value: string, ...params: (string | number | boolean)[]): Resource;
/** The context of the ability that hosts a component (API 12). */
declare function getContext(component?: Object): import('../api/application/Context').default;
declare type ResourceColor = Color | number | string | Resource;
declare type CustomBuilder = (() => any) | void;

/** The implicit base of every `struct` (ets option customComponent). */
declare class CustomComponent {
  build(): void;
  aboutToAppear?(): void;
  aboutToDisappear?(): void;
  onPageShow?(): void;
  onPageHide?(): void;
  onBackPress?(): void | boolean;
}

declare class ClickEvent {
  x: number;
  y: number;
  timestamp: number;
}

declare interface Padding {
  top?: Length;
  right?: Length;
  bottom?: Length;
  left?: Length;
}

declare interface Callback<T, V = void> {
  (data: T): V;
}

/** Why a sheet is being closed interactively (API 12). */
declare enum DismissReason {
  PRESS_BACK = 0,
  TOUCH_OUTSIDE = 1,
  CLOSE_BUTTON = 2,
  SLIDE_DOWN = 3
}

/** Passed to SheetOptions.onWillDismiss: the sheet closes only if `dismiss()` is called (API 12). */
declare interface DismissSheetAction {
  dismiss: Callback<void>;
  reason: DismissReason;
}

declare interface SheetOptions {
  height?: SheetSize | Length;
  dragBar?: boolean;
  title?: SheetTitleOptions;
  onAppear?: () => void;
  onDisappear?: () => void;
  onWillDismiss?: Callback<DismissSheetAction>;
}

declare interface SheetTitleOptions {
  title: ResourceStr;
  subtitle?: ResourceStr;
}

declare class CommonMethod<T> {
  width(value: Length): T;
  height(value: Length): T;
  padding(value: Padding | Length): T;
  margin(value: Padding | Length): T;
  backgroundColor(value: ResourceColor): T;
  borderRadius(value: Length): T;
  layoutWeight(value: number | string): T;
  enabled(value: boolean): T;
  opacity(value: number): T;
  onClick(event: (event: ClickEvent) => void): T;
  bindSheet(isShow: boolean, builder: CustomBuilder, options?: SheetOptions): T;
}

declare class CommonShapeMethod<T> extends CommonMethod<T> {}
