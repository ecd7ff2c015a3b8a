#pragma once

// The generic reward components: rewards of no task in particular, registered for every
// task (Registry::Entry::task ""). Each reads a completion's parsed answer
// (task::Completion::answer) or its whole text and, where it compares, the example's gold
// (task::Example::goldText) or, for the examples of a user's task, a column of its record
// (task::RecordExample): exact_match, contains, regex, numeric, f1, json_valid,
// json_schema, json_fields, tag_format, length, language, repetition. Each explains itself
// with Reason::Library, a sentence key and its arguments (libraryreward.h) that the
// workbench translates. Their options are strict (componentoptions.h). Every
// task::Catalog has them (task/catalog.h). docs/rewards.md defines each, with its options
// and a worked example.

namespace rwb::reward {

class Registry;

// Adds the generic components to `registry`. Throws std::invalid_argument when one of
// their names is taken.
void addLibraryRewards(Registry &registry);

} // namespace rwb::reward
