#pragma once

// A first task description guessed from a sample of the user's records: what `rwb task
// init` writes and File ▸ New task from data… starts from. The shape, the prompt and
// reference columns, an answer extractor and metrics that fit the references, each
// choice explained by a comment in the file (a description file may hold // comments).

#include <string>
#include <vector>

namespace rwb::task {

struct TaskDraft {
    // One guess: a stable key a view translates ("records.trl", "answer.numeric"), what
    // fills its %1, %2 … and the English line a terminal shows.
    struct Note {
        std::string key;
        std::vector<std::string> args;
        std::string text;
    };
    std::string description; // the description, JSON with // comments explaining each choice
    std::vector<Note> notes; // in the order guessed
};

// Guesses from the first records of `path` (a JSONL file; up to 50 lines read). `name`
// is the task's name (lower-case words joined by "_"). Throws data::InputException
// naming the file and line when a line is not a JSON object, or (line 0) when the file
// has none.
TaskDraft draftTaskDescription(const std::string &path, const std::string &name);

} // namespace rwb::task
