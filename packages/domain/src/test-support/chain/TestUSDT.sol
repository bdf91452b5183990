// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A stand-in for USDT on the test node: 6 decimals, and anyone may mint (tests fund users with it).
contract TestUSDT is ERC20 {
    constructor() ERC20("Test Tether USD", "USDT") {}

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
