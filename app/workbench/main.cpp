// reward-workbench: the desktop workbench.
#include "languagemanager.h"
#include "mainwindow.h"
#include "rewarddesigner.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QScreen>
#include <QTimer>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RewardWorkbench"));
    QApplication::setApplicationName(QStringLiteral("reward-workbench"));
    QApplication::setApplicationVersion(QStringLiteral(RWB_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Reward Workbench: design and debug rewards for GRPO fine-tuning."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption samples(QStringLiteral("samples"), QStringLiteral("Extraction samples to open (JSONL)."),
                                     QStringLiteral("file"));
    const QCommandLineOption config(QStringLiteral("config"), QStringLiteral("Reward config to open (JSON)."),
                                    QStringLiteral("file"));
    const QCommandLineOption lang(QStringLiteral("lang"), QStringLiteral("Language: system, en or ja (remembered)."),
                                  QStringLiteral("code"));
    const QCommandLineOption select(QStringLiteral("select"), QStringLiteral("Select this row of the sample table."),
                                    QStringLiteral("row"), QStringLiteral("0"));
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Save a screenshot of the window to this PNG and quit."),
                                        QStringLiteral("png"));
    parser.addOptions({samples, config, lang, select, screenshot});
    parser.process(app);

    LanguageManager language;
    language.setChoice(parser.isSet(lang) ? parser.value(lang) : LanguageManager::storedChoice());

    MainWindow window(&language);
    window.openInitialFiles(parser.value(samples), parser.value(config));
    window.designer()->selectRow(parser.value(select).toInt());
    window.show();

    if (parser.isSet(screenshot)) {
        const QString path = parser.value(screenshot);
        QTimer::singleShot(1500, &window, [&window, path] {
            const bool ok = window.grab().save(path);
            QApplication::exit(ok ? 0 : 1);
        });
    }
    return app.exec();
}
