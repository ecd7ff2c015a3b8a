#pragma once

#include "runconfigdiffmodel.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QTableView;

namespace rwb::store {
struct RunInfo;
}

namespace rwb::widgets {

// A window showing run configs flattened to settings (RunConfigDiffModel): one run's
// config, or two runs' side by side with only the settings that differ, "Show all
// settings" listing every one with the differing ones marked. Not modal: it is deleted
// when closed. GUI thread only.
class RunConfigDialog : public QDialog {
    Q_OBJECT
public:
    // Shows one run's config (showRun) or compares two (compareRuns); the window is open
    // when they return, and deletes itself when closed.
    static RunConfigDialog *showRun(QWidget *parent, const store::RunInfo &run);
    static RunConfigDialog *compareRuns(QWidget *parent, const store::RunInfo &first, const store::RunInfo &second);

    RunConfigDialog(std::vector<RunConfigDiffModel::Config> configs, QWidget *parent = nullptr);
    ~RunConfigDialog() override;

    RunConfigDiffModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    // Hidden when there is one config.
    QCheckBox *showAllBox() const { return m_showAll; }
    // What the line above the table says ("3 of 41 settings differ.").
    QString summary() const;

    // The column header of a run: "#3 baseline".
    static QString runTitle(const store::RunInfo &run);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void fitColumns();

    RunConfigDiffModel *m_model;
    QLabel *m_summary;
    QCheckBox *m_showAll;
    QTableView *m_table;
};

} // namespace rwb::widgets
