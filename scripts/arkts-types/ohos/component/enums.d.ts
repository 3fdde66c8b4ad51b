// ArkUI enums (API 12) used by the entry pages.
declare enum Color {
  White,
  Black,
  Blue,
  Brown,
  Gray,
  Green,
  Grey,
  Orange,
  Pink,
  Red,
  Yellow,
  Transparent
}

declare enum FontWeight {
  Lighter,
  Normal,
  Regular,
  Medium,
  Bold,
  Bolder
}

declare enum HorizontalAlign {
  Start,
  Center,
  End
}

declare enum VerticalAlign {
  Top,
  Center,
  Bottom
}

declare enum FlexAlign {
  Start,
  Center,
  End,
  SpaceBetween,
  SpaceAround,
  SpaceEvenly
}

declare enum SheetSize {
  MEDIUM = 0,
  LARGE = 1,
  FIT_CONTENT = 2
}

declare enum InputType {
  Normal = 0,
  Number = 1,
  PhoneNumber = 2,
  Email = 3,
  Password = 4
}
