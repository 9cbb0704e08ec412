import type { ObjectFieldTemplateProps } from '@rjsf/utils';

interface Section {
  title: string;
  fields: string[];
}

/** Lays out an object's fields, grouped into titled sections when the UI schema says
 *  "ui:sections": [{ "title": "…", "fields": ["…"] }]. Fields in no section follow at the end. */
export default function ObjectFieldTemplate({ properties, uiSchema, fieldPathId }: ObjectFieldTemplateProps) {
  const sections = (uiSchema?.['ui:sections'] as Section[] | undefined) ?? [];
  // Not a fieldset: a group with no legend would be a group without a name. Groups the member
  // should hear as one (the sections, a radio group) are named.
  if (sections.length === 0)
    return (
      <div className="form-fields" id={fieldPathId.$id}>
        {properties.map((p) => p.content)}
      </div>
    );
  const placed = new Set(sections.flatMap((s) => s.fields));
  const rest = properties.filter((p) => !placed.has(p.name));
  return (
    <div id={fieldPathId.$id}>
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
