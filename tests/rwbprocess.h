#pragma once

// Runs the rwb binary built beside the tests (RWB_BINARY) for test fixtures.
#include <QProcess>
#include <QStringList>
#include "testtime.h"

namespace rwbtest {

// True when `rwb args…` finished within two minutes with exit code 0.
inline bool runRwb(const QStringList &args)
{
    QProcess p;
    p.start(RWB_BINARY, args);
    return p.waitForFinished(rwbtest::scaledMs(120000)) && p.exitCode() == 0;
}

} // namespace rwbtest
