// LazyForEach (API 12): items are built on demand from an IDataSource; the source tells its
// listeners what changed. The SDK declares getData and the callbacks with `any`.
declare interface DataChangeListener {
  onDataReloaded(): void;
  onDataAdded(index: number): void;
  onDataAdd(index: number): void;
  onDataMoved(from: number, to: number): void;
  onDataMove(from: number, to: number): void;
  onDataDeleted(index: number): void;
  onDataDelete(index: number): void;
  onDataChanged(index: number): void;
  onDataChange(index: number): void;
  onDatasetChange(dataOperations: DataOperation[]): void;
}

/** API 12 batch operations (the SDK declares one interface per kind; only the shared field here). */
declare enum DataOperationType {
  ADD = 'add',
  DELETE = 'delete',
  EXCHANGE = 'exchange',
  MOVE = 'move',
  CHANGE = 'change',
  RELOAD = 'reload'
}

declare interface DataOperation {
  type: DataOperationType;
}

declare interface IDataSource {
  totalCount(): number;
  getData(index: number): any;
  registerDataChangeListener(listener: DataChangeListener): void;
  unregisterDataChangeListener(listener: DataChangeListener): void;
}

interface LazyForEachInterface {
  (dataSource: IDataSource, itemGenerator: (item: any, index: number) => void,
    keyGenerator?: (item: any, index: number) => string): LazyForEachAttribute;
}

declare class LazyForEachAttribute extends DynamicNode<LazyForEachAttribute> {}

declare const LazyForEach: LazyForEachInterface;
