#include "guidedtour.h"
#include "mainwindow.h"

#include "rescorebutton.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTabWidget>
#include <QToolButton>

using rwb::widgets::TourPanel;
using rwb::widgets::TourStep;

namespace {

// A menu's or an action's text as a sentence names it: no mnemonic ("&File", "探索木(&T)")
// and no trailing ellipsis.
QString plainText(QString text)
{
    static const QRegularExpression kMnemonic(QStringLiteral("\\(&[^)]\\)"));
    text.remove(kMnemonic);
    text.remove(QLatin1Char('&'));
    if (text.endsWith(QChar(0x2026)))
        text.chop(1);
    return text.trimmed();
}

int tab(MainWindow::View view)
{
    return static_cast<int>(view);
}

} // namespace

GuidedTour::GuidedTour(QMainWindow *window, TourPanel *panel, Parts parts)
    : QObject(window), m_window(window), m_panel(panel), m_parts(parts), m_action(new QAction(this))
{
    m_action->setObjectName(QStringLiteral("helpGuidedTour"));
    connect(m_action, &QAction::triggered, m_panel, &TourPanel::start);
    retranslate();
}

void GuidedTour::retranslate()
{
    m_action->setText(tr("&Guided tour"));
    m_action->setToolTip(tr("Where each part of the workbench lives, one step at a time"));
    m_panel->setSteps(steps());
}

QList<TourStep> GuidedTour::steps() const
{
    const auto tabName = [this](MainWindow::View view) { return plainText(m_parts.views->tabText(tab(view))); };
    const auto dockName = [](QDockWidget *dock) { return plainText(dock->windowTitle()); };
    QList<TourStep> s;
    s.append({QStringLiteral("designer"), tr("Reward Designer"),
              tr("Compose the reward from components and their weights in the %1 dock; the %2 tab shows what each "
                 "component gives on real samples, and why. While a run trains, “Apply to the run…” there changes "
                 "its weights from its next step.")
                  .arg(dockName(m_parts.components), tabName(MainWindow::View::Design)),
              [this] {
                  showTab(tab(MainWindow::View::Design));
                  showDock(m_parts.components);
                  if (auto *apply = m_parts.components->findChild<QWidget *>(QStringLiteral("applyToRun"));
                      apply && apply->isVisible())
                      TourPanel::highlight(apply);
              }});
    s.append({QStringLiteral("training"), tr("Training setup and starting a run"),
              tr("The %1 dock holds the GRPO run's model, data and settings. %2 (in the %3 menu and on the toolbar) "
                 "begins the run; Pause, Resume and Stop steer it.")
                  .arg(dockName(m_parts.training), plainText(m_parts.start->text()), menuPath(m_parts.start).section(QStringLiteral(" ▸ "), 0, 0)),
              [this] {
                  showDock(m_parts.training);
                  // The toolbar's Start button (the menu's entry is not on screen).
                  for (QObject *o : m_parts.start->associatedObjects())
                      if (auto *button = qobject_cast<QToolButton *>(o); button && button->isVisible())
                          TourPanel::highlight(button);
              }});
    s.append({QStringLiteral("curves"), tr("Curves"),
              tr("Reward ± std, components, KL, entropy, clipping, length and validation F1, live while a run trains. "
                 "The metric picker on the left gives any metric of the store a plot of its own."),
              [this] {
                  // The picker shows whether its button was left off or not.
                  QWidget *page = m_parts.views->widget(tab(MainWindow::View::Curves));
                  if (auto *button = page->findChild<QPushButton *>(QStringLiteral("curvesMetricsButton")))
                      button->setChecked(true);
                  showTab(tab(MainWindow::View::Curves), QStringLiteral("curvesMetricPicker"));
              }});
    s.append({QStringLiteral("groups"), tr("Group advantages"),
              tr("Every group's rewards and advantages at each step: which completions GRPO pushed up and which down."),
              [this] { showTab(tab(MainWindow::View::Groups)); }});
    s.append({QStringLiteral("rollouts"), tr("Rollout browser and what-if re-scoring"),
              tr("Every rollout of the run, filtered by component conditions or full-text search. “Re-score…” scores "
                 "them again with the Designer's current config and compares the advantages: what a change would "
                 "do, before you train with it."),
              [this] {
                  showTab(tab(MainWindow::View::Rollouts));
                  QWidget *page = m_parts.views->widget(tab(MainWindow::View::Rollouts));
                  TourPanel::highlight(page->findChild<rwb::widgets::RescoreButton *>());
              }});
    s.append({QStringLiteral("failures"), tr("Failures"),
              tr("An evaluated checkpoint's mistakes grouped by kind, and two checkpoints compared. Answers that no "
                 "grader could judge (a judge or a reward that failed) have a category of their own: grader failure."),
              [this] { showTab(tab(MainWindow::View::Failures), QStringLiteral("failureCategories")); }});
    s.append({QStringLiteral("judge"), tr("Judge decisions"),
              tr("Every call of an LLM judge: its prompt, reply and verdict, beside the reference grader's."),
              [this] { showTab(tab(MainWindow::View::Judge)); }});
    s.append({QStringLiteral("tokens"), tr("Tokens"),
              tr("The %1 dock colours the selected rollout's tokens by advantage, ratio or entropy.")
                  .arg(dockName(m_parts.tokens)),
              [this] { showDock(m_parts.tokens); }});
    s.append({QStringLiteral("trees"), tr("Search trees"),
              tr("%1 opens the MCTS tree viewer, which replays a tree search iteration by iteration.")
                  .arg(menuPath(m_parts.showTrees)),
              [this] { openMenuAt(m_parts.showTrees); }});
    s.append({QStringLiteral("annotator"), tr("Preference annotator"),
              tr("%1 labels sibling steps of the search trees for a process reward model, from the keyboard, with "
                 "the agreement between raters.")
                  .arg(menuPath(m_parts.annotate)),
              [this] { openMenuAt(m_parts.annotate); }});
    s.append({QStringLiteral("runs"), tr("Runs"),
              tr("The %1 dock lists the workspace's runs: double-click one to show it in every view; its context "
                 "menu overlays it on the curves or resumes it.")
                  .arg(dockName(m_parts.runs)),
              [this] { showDock(m_parts.runs); }});
    s.append({QStringLiteral("jobs"), tr("Jobs"),
              tr("The %1 menu starts the MCTS search, preference pairs and their judge labels, PRM training, "
                 "PRM-filtered fine-tuning, a judge's evaluation and imports, each from a form; the Jobs dock follows "
                 "the one running (progress, time left, Cancel, curves, result). Synthetic data, SFT and evaluating a "
                 "checkpoint are in the Training menu.")
                  .arg(menuPath(m_parts.firstJob).section(QStringLiteral(" ▸ "), 0, 0)),
              [this] { openMenuAt(m_parts.firstJob); }});
    s.append({QStringLiteral("help"), tr("User guide"),
              tr("%1 (F1) explains every view in detail; %2 opens this tour again.")
                  .arg(menuPath(m_parts.userGuide), menuPath(m_action)),
              [this] { openMenuAt(m_parts.userGuide); }});
    return s;
}

void GuidedTour::showTab(int view, const QString &highlightName) const
{
    m_parts.views->setCurrentIndex(view);
    QWidget *page = m_parts.views->widget(view);
    QWidget *part = highlightName.isEmpty() ? nullptr : page->findChild<QWidget *>(highlightName);
    TourPanel::highlight(part && part->isVisible() ? part : page);
}

void GuidedTour::showDock(QDockWidget *dock) const
{
    dock->show();
    dock->raise();
    TourPanel::highlight(dock);
}

void GuidedTour::openMenuAt(QAction *action) const
{
    for (QAction *top : m_window->menuBar()->actions())
        if (QMenu *menu = top->menu(); menu && menu->actions().contains(action)) {
            m_window->menuBar()->setActiveAction(top); // opens the menu
            menu->setActiveAction(action);
            return;
        }
}

// "View ▸ Search trees": the menu holding `action` and its text; the action's text alone
// when no menu holds it (yet).
QString GuidedTour::menuPath(QAction *action) const
{
    for (QAction *top : m_window->menuBar()->actions())
        if (QMenu *menu = top->menu(); menu && menu->actions().contains(action))
            return plainText(menu->title()) + QStringLiteral(" ▸ ") + plainText(action->text());
    return plainText(action->text());
}
