// Node fake of @kit.ArkData (API 12), faithful to OpenHarmony 5.0.0 where a device loses data:
// preferences in ./arkdata/PreferencesFake.ts (an XML file per instance, loaded on one executor
// thread, 2 s load wait), relationalStore in ./arkdata/RelationalFake.ts (SQLite through sql.js,
// one writer connection, nested transactions as savepoints, query errors inside the result set).
export { preferences } from './arkdata/PreferencesFake'
export { forgetStores, relationalStore } from './arkdata/RelationalFake'
