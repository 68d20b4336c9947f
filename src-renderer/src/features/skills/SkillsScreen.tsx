import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { pick } from '../../stores/pick';
import { plainName } from '../../app/bidi';
import { IconBook } from '../../components/icons';
import { Markdown } from '../../components/Markdown';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState } from '../../components/states';
import { useSkillsStore } from '../../stores/use-skills-store';
import './skills.css';
import { LoadGate } from '../../components/LoadGate';
import { PickList } from '../../components/PickList';
import { LabeledField } from '../../components/Field';

export function SkillsScreen() {
  const { skills, selected, detail, load, select } = useSkillsStore(
    useShallow((s) => pick(s, 'skills', 'selected', 'detail', 'load', 'select')),
  );
  useEffect(() => void load(), [load]);
  const list = useMemo(() => skills.data ?? [], [skills.data]);
  useEffect(() => {
    const first = list[0];
    if (!selected && first) void select(first.id);
  }, [list, selected, select]);

  const d = detail.data;
  return (
    <div className="page">
      <PageHeader
        title="Skills"
        subtitle="Public, versioned instructions your automations' agents can follow."
      />
      <div className="grid-sidebar">
        <section className="card" aria-labelledby="skills-list-title">
          <div className="card__header">
            <h2 id="skills-list-title">Library</h2>
          </div>
          <LoadGate state={skills} what="the skills" onRetry={load} freshness>
            <PickList
              label="Skills"
              items={list}
              picked={selected?.id}
              onPick={(s) => void select(s.id)}
              itemClass="skill-item"
              empty={<EmptyState title="No skills published" icon={<IconBook size={20} />} />}
            >
              {(s) => (
                <>
                  <span className="skill-item__name">{plainName(s.name)}</span>
                  <span className="skill-item__desc muted">{s.description}</span>
                  <span className="badge badge--plain">v{s.latest_version}</span>
                </>
              )}
            </PickList>
          </LoadGate>
        </section>
        <section className="card" aria-label="Skill">
          {!selected ? (
            <EmptyState title="Pick a skill" icon={<IconBook size={20} />}>
              Its instructions appear here, rendered.
            </EmptyState>
          ) : (
            <LoadGate
              state={detail}
              what="this skill"
              onRetry={() => select(selected.id, selected.version ?? undefined)}
            >
              {d ? (
                <>
                  <div className="card__header">
                    <div>
                      <h2>{plainName(d.skill.name)}</h2>
                      <p className="muted">{d.skill.description}</p>
                    </div>
                    <LabeledField id="skill-version" label="Version" className="skill-version">
                      <select
                        id="skill-version"
                        className="select"
                        value={d.skill.version}
                        onChange={(e) => void select(d.skill.id, e.target.value)}
                      >
                        {d.versions.map((v) => (
                          <option key={v} value={v}>
                            {v}
                          </option>
                        ))}
                      </select>
                    </LabeledField>
                  </div>
                  <div className="card__body">
                    <Markdown source={d.skill.markdown} label={`${d.skill.name} instructions`} />
                  </div>
                </>
              ) : null}
            </LoadGate>
          )}
        </section>
      </div>
    </div>
  );
}
