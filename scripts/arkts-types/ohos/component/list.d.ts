interface ListOptions {
  space?: number | string;
  initialIndex?: number;
}

interface ListInterface {
  (options?: ListOptions): ListAttribute;
}

declare class ListAttribute extends CommonMethod<ListAttribute> {}

interface ListItemInterface {
  (value?: string): ListItemAttribute;
}

declare class ListItemAttribute extends CommonMethod<ListItemAttribute> {}

declare const List: ListInterface;
declare const ListInstance: ListAttribute;
declare const ListItem: ListItemInterface;
declare const ListItemInstance: ListItemAttribute;
