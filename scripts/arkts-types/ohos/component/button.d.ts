declare enum ButtonType {
  Capsule,
  Circle,
  Normal
}

interface ButtonOptions {
  type?: ButtonType;
  stateEffect?: boolean;
}

interface ButtonInterface {
  (): ButtonAttribute;
  (options: ButtonOptions): ButtonAttribute;
  (label: ResourceStr, options?: ButtonOptions): ButtonAttribute;
}

declare class ButtonAttribute extends CommonMethod<ButtonAttribute> {
  type(value: ButtonType): ButtonAttribute;
  fontSize(value: Length): ButtonAttribute;
  fontColor(value: ResourceColor): ButtonAttribute;
}

declare const Button: ButtonInterface;
declare const ButtonInstance: ButtonAttribute;
