import { Flex, Select, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { type Country, useCountries } from "./country-list.ts";

/** Lower-case text a country is found by: its names in the interface language and English, ISO and calling code. */
const searchText = (c: Country) => `${c.name} ${c.english} ${c.code} +${c.callingCode}`.toLowerCase();

function matchCountry(input: string, option: { search?: string } | undefined): boolean {
  return (option?.search ?? "").includes(input.trim().toLowerCase());
}

/** The area-code select: lists every country with its calling code; shows "US +1" once chosen. */
export function AreaCodeSelect({
  value,
  onChange,
  testId,
  disabled,
}: {
  value?: string;
  onChange?: (value: string) => void;
  testId: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const countries = useCountries();
  const options = useMemo(
    () =>
      countries.map((c) => ({
        value: c.code,
        label: `${c.code} +${c.callingCode}`,
        name: c.name,
        callingCode: c.callingCode,
        search: searchText(c),
      })),
    [countries],
  );
  return (
    <Select
      value={value}
      onChange={onChange}
      disabled={disabled}
      options={options}
      showSearch={{ filterOption: matchCountry }}
      popupMatchSelectWidth={300}
      style={{ width: 124, flex: "none" }}
      aria-label={t("fields.areaCode")}
      data-testid={testId}
      optionRender={(option) => (
        <Flex justify="space-between" gap={8}>
          <Typography.Text ellipsis>{option.data.name}</Typography.Text>
          <Typography.Text type="secondary">+{option.data.callingCode}</Typography.Text>
        </Flex>
      )}
    />
  );
}

/** The nationality select: every country named in the interface language, searchable. */
export function NationalitySelect({
  value,
  onChange,
  testId,
}: {
  value?: string;
  onChange?: (value: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const countries = useCountries();
  const options = useMemo(
    () => countries.map((c) => ({ value: c.code, label: c.name, search: searchText(c) })),
    [countries],
  );
  return (
    <Select
      value={value}
      onChange={onChange}
      options={options}
      showSearch={{ filterOption: matchCountry }}
      placeholder={t("auth.placeholders.nationality")}
      data-testid={testId}
    />
  );
}

// ---------------------------------------------------------------- form rules
