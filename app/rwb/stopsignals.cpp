#include "stopsignals.h"

#include <atomic>
#include <csignal>

namespace rwb::cli {

namespace {

std::atomic<int> g_pending{0};   // signals not yet taken
std::atomic<int> g_last{0};      // the last signal's number
std::atomic<bool> g_any{false};  // any since construction
struct sigaction g_previousInt {};
struct sigaction g_previousTerm {};

extern "C" void onStopSignal(int signalNumber)
{
    g_last.store(signalNumber);
    g_any.store(true);
    g_pending.fetch_add(1);
}

} // namespace

StopSignals::StopSignals()
{
    g_pending = 0;
    g_last = 0;
    g_any = false;
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, &g_previousInt);
    sigaction(SIGTERM, &action, &g_previousTerm);
}

StopSignals::~StopSignals()
{
    sigaction(SIGINT, &g_previousInt, nullptr);
    sigaction(SIGTERM, &g_previousTerm, nullptr);
}

bool StopSignals::takeRequest()
{
    int pending = g_pending.load();
    while (pending > 0)
        if (g_pending.compare_exchange_weak(pending, 0))
            return true;
    return false;
}

bool StopSignals::requested() const
{
    return g_any.load();
}

const char *StopSignals::lastSignal() const
{
    switch (g_last.load()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "";
    }
}

} // namespace rwb::cli
