// @vitest-environment jsdom
// The old registration form's desired municipality: master-select with "groupBy": "prefecture"
// shows the denshijiti list in prefecture groups and stores the 6-digit local-government code.
import { afterEach, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as oldRegisterForm from 'virtual:form/old-register';
import type { FormModule } from '../../src/engine/SchemaForm';
import { FormHarness } from '../support/form-harness';

afterEach(cleanup);

it('groups municipalities under their prefecture and keeps the chosen code', async () => {
  const list = [
    { value: '011002', label: '札幌市', prefecture: '北海道', prefecture_code: '010006' },
    { value: '202011', label: '長野市', prefecture: '長野県', prefecture_code: '200000' },
    { value: '202029', label: '松本市', prefecture: '長野県', prefecture_code: '200000' },
  ];
  const onData = vi.fn();
  render(<FormHarness form={oldRegisterForm as FormModule} masters={{ denshijiti: list }} onData={onData} />);
  const select = screen.getByRole('combobox', { name: /^希望する自治体/ });
  const groups = Array.from(select.querySelectorAll('optgroup')).map((g) => [g.label, Array.from(g.querySelectorAll('option')).map((o) => o.value)]);
  expect(groups).toEqual([
    ['北海道', ['011002']],
    ['長野県', ['202011', '202029']],
  ]);
  expect(within(select).getByRole('option', { name: '長野市' })).toBeTruthy();
  await userEvent.setup().selectOptions(select, '202029');
  expect(onData.mock.lastCall?.[0]).toMatchObject({ city: '202029' });
});
