#pragma once

#include <QObject>
#include <QString>

class QAction;
class QLabel;
class QWidget;
class RewardDesigner;

// The Reward Designer's files: File → Open samples, the bundled sample sets (the default
// task's and legal QA's, each with its task's preset), Load / Save reward config; the
// samples and config a session starts with; and the status bar's samples label.
// GUI thread only.
class DesignerActions : public QObject {
    Q_OBJECT
public:
    DesignerActions(QWidget *window, RewardDesigner *designer);

    // Open samples, bundled samples, bundled legal-QA samples.
    QList<QAction *> sampleActions() const;
    // Load, Save reward config.
    QList<QAction *> configActions() const;
    QLabel *samplesStatus() const { return m_samplesStatus; }
    void retranslate();

    // The samples and the config given on the command line, else those of the last
    // session, else the bundled sample set and its task's preset (for the default task the
    // paper's best, table 2 *).
    void openInitialFiles(const QString &samples, const QString &config);
    void openBundledSamples();

Q_SIGNALS:
    void notice(const QString &title, const QString &text);
    void statusMessage(const QString &text);

private:
    void updateSamplesStatus();

    RewardDesigner *m_designer;
    QAction *m_openSamples;
    QAction *m_openBundled;
    QAction *m_openBundledLegal;
    QAction *m_loadConfig;
    QAction *m_saveConfig;
    QLabel *m_samplesStatus;
};
