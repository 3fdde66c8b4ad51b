declare class Scroller {
  constructor();
  scrollEdge(value: Edge): void;
}

declare enum Edge {
  Top,
  Center,
  Bottom,
  Baseline,
  Start,
  Middle,
  End
}

interface ScrollInterface {
  (scroller?: Scroller): ScrollAttribute;
}

declare class ScrollAttribute extends CommonMethod<ScrollAttribute> {}

declare const Scroll: ScrollInterface;
declare const ScrollInstance: ScrollAttribute;
