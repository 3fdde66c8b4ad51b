interface TextInputOptions {
  placeholder?: ResourceStr;
  text?: ResourceStr;
}

interface TextInputInterface {
  (value?: TextInputOptions): TextInputAttribute;
}

declare class TextInputAttribute extends CommonMethod<TextInputAttribute> {
  type(value: InputType): TextInputAttribute;
  onChange(callback: (value: string) => void): TextInputAttribute;
  onSubmit(callback: (enterKey: number) => void): TextInputAttribute;
}

declare const TextInput: TextInputInterface;
declare const TextInputInstance: TextInputAttribute;
