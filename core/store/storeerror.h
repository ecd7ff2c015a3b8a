#pragma once

#include "sqlite/error.h"

namespace rwb::store {

// What the run store throws for anything SQLite refuses (the file cannot be opened, it is
// not a run store or comes from a newer version, a statement fails, the disk is full):
// the SQLite module's error, "<file>: <context>: <SQLite's message>".
using StoreError = sqlite::Error;

} // namespace rwb::store
