import type { ObjectFieldTemplateProps } from '@rjsf/utils';

interface Section {
  title: string;
  fields: string[];
}

/** Lays out an object's fields, grouped into titled sections when the UI schema says
 *  "ui:sections": [{ "title": "…", "fields": ["…"] }]. Fields in no section follow at the end. */
export default function ObjectFieldTemplate({ properties, uiSchema, fieldPathId, registry }: ObjectFieldTemplateProps) {
  const sections = (uiSchema?.['ui:sections'] as Section[] | undefined) ?? [];
  // The form's own object carries no id: `root` is every form's, and the app's mount point's too
  // (two forms on a screen, password reset's steps, had duplicate ids). Its parts keep theirs.
  const isRoot = fieldPathId.$id === registry.globalFormOptions.idPrefix;
  const id = isRoot ? undefined : fieldPathId.$id;
  // Not a fieldset: a group with no legend would be a group without a name. Groups the member
  // should hear as one (the sections, a radio group) are named.
  if (sections.length === 0)
    return (
      <div className={isRoot ? 'form-fields form-fields--root' : 'form-fields'} id={id}>
        {properties.map((p) => p.content)}
      </div>
    );
  const placed = new Set(sections.flatMap((s) => s.fields));
  const rest = properties.filter((p) => !placed.has(p.name));
  return (
    <div id={id}>
      {sections.map((section, index) => (
        <fieldset key={section.title} className="form-section" aria-labelledby={`${fieldPathId.$id}__section${index}`}>
          <h2 className="form-section__title" id={`${fieldPathId.$id}__section${index}`}>
            {section.title}
          </h2>
          {properties.filter((p) => section.fields.includes(p.name)).map((p) => p.content)}
        </fieldset>
      ))}
      {rest.map((p) => p.content)}
    </div>
  );
}
