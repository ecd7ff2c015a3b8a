#pragma once

namespace rwb::store {

// The run store's schema: tables, indexes, FTS5 indexes with the triggers that keep them
// in sync, and the stable views. docs/store.md documents every column. Bump kVersion
// for any change a reader could notice, and add an upgrade step for older files.
class Schema {
public:
    // PRAGMA user_version of a file written by this build.
    static constexpr int kVersion = 1;
    // The SQL that creates version kVersion in an empty database (one script).
    static const char *createSql();
};

} // namespace rwb::store
