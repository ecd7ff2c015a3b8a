#pragma once

#include <QString>

namespace rwb::widgets {

// A run started from the window gets a folder of its own: `output` itself when it does
// not exist or is empty, else the first of `output-2`, `output-3`, … that does not exist
// or is empty. A run's checkpoints and its `final` are never mixed with another run's.
// Touches nothing on disk (the trainer creates the folder). Any thread.
QString freshOutputFolder(const QString &output);

} // namespace rwb::widgets
